import type { JsonSchema } from '../codecs/schema-notes';
import type { ParameterDoc, ResponseDoc, RouteDocs } from '../openapi/operation-doc';

export const SSO_TAG = 'mt SSO (identity provider)';

const page = (description: string): ResponseDoc => ({ description, schema: { type: 'string' }, envelope: false, mediaType: 'text/html' });

const UNKNOWN = page('No mt workspace has this identity provider (a page saying so).');
const UNUSABLE = page("Google's request cannot be used: missing, unreadable, not from Google for the workspace's domain, or for another assertion consumer service (a page saying why).");

const SAML_TEXT: JsonSchema = { type: 'string' };

/** The HTTP-Redirect binding's parameters, as Google sends them (SAML 2.0 Bindings, 3.4.4). */
const redirectQuery: Record<string, ParameterDoc> = {
  SAMLRequest: { required: true, description: "Google's AuthnRequest, DEFLATE-compressed and base64-encoded.", schema: SAML_TEXT },
  RelayState: { required: false, description: 'Given back to Google with the Response.', schema: SAML_TEXT },
  SigAlg: { required: false, description: 'Present when Google signs its request.', schema: SAML_TEXT },
  Signature: { required: false, description: "Google's signature of the request, when it signs it.", schema: SAML_TEXT },
};

const form: JsonSchema = {
  type: 'object',
  description:
    "Google's HTTP-POST binding (`SAMLRequest`, `RelayState`), or the sign-in form this page showed, sent back by the bot's browser with " +
    '`bot_credential` (and `binding`, the binding of Google\'s request).',
  properties: {
    SAMLRequest: { type: 'string', description: "Google's AuthnRequest, base64-encoded." },
    RelayState: { type: 'string' },
    SigAlg: { type: 'string' },
    Signature: { type: 'string' },
    binding: { type: 'string', enum: ['redirect', 'post'], description: 'The binding Google\'s request came with (the form carries it); `post` unless `redirect`.' },
    bot_credential: { type: 'string', description: 'The one-time credential the service handed the bot for this sign-in (a bot fills it in, not a person).' },
  },
  required: ['SAMLRequest'],
};

const PUBLIC =
  'Public: the mt platform (Google) and the bot\'s browser call it, with no API key. An mt workspace\'s `sso` (GET /v2/mt-workspaces/{workspace_id}) ' +
  'gives these URLs for the domain\'s SSO profile.';

/** The routes of mt-sso-router.ts: our SAML 2.0 identity provider, one per mt workspace. */
export const mtSsoRouteDocs: RouteDocs = {
  'GET /v2/mt-sso/{workspace_id}/metadata': {
    operationId: 'mtSsoMetadata',
    tag: SSO_TAG,
    summary: "The identity provider's SAML metadata",
    description: `Its entity id, single sign-on URLs (HTTP-Redirect and HTTP-POST) and the workspace's signing certificate. ${PUBLIC}`,
    noKey: true,
    ownMediaTypes: true,
    responses: {
      200: { description: 'The SAML 2.0 metadata (an EntityDescriptor).', schema: { type: 'string' }, envelope: false, mediaType: 'application/samlmetadata+xml' },
      404: UNKNOWN,
    },
  },
  'GET /v2/mt-sso/{workspace_id}/sso': {
    operationId: 'mtSsoRedirect',
    tag: SSO_TAG,
    summary: 'Single sign-on, HTTP-Redirect binding',
    description: `Where Google sends the browser with its AuthnRequest: a sign-in form only a bot of the team, during its own run, can complete. ${PUBLIC}`,
    noKey: true,
    ownMediaTypes: true,
    query: redirectQuery,
    responses: { 200: page('The bot sign-in form.'), 400: UNUSABLE, 404: UNKNOWN },
  },
  'POST /v2/mt-sso/{workspace_id}/sso': {
    operationId: 'mtSsoPost',
    tag: SSO_TAG,
    summary: 'Single sign-on, HTTP-POST binding, and the bot sign-in form',
    description:
      "Google's AuthnRequest by HTTP-POST: the bot sign-in form. The form sent back with a valid `bot_credential` (a bot of the workspace's team, " +
      'still running and holding a session of one of its logins, once per session): a page that posts the signed SAML Response (NameID: the ' +
      `login's email) to Google. ${PUBLIC}`,
    noKey: true,
    ownMediaTypes: true,
    body: { name: 'MtSsoForm', schema: form, required: true, examples: {}, mediaType: 'application/x-www-form-urlencoded' },
    responses: {
      200: page('The bot sign-in form, or the page that posts the signed Response to Google.'),
      400: UNUSABLE,
      403: page('Refused: only a bot of this team, during its own run, can sign in here (the credential is missing, wrong, used or expired).'),
      404: UNKNOWN,
    },
    errors: { 400: ['FST_ERR_VALIDATION'], 413: ['FST_ERR_CTP_BODY_TOO_LARGE'] },
  },
  'GET /v2/mt-sso/{workspace_id}/signed-out': {
    operationId: 'mtSsoSignedOut',
    tag: SSO_TAG,
    summary: 'Signed out',
    description: `Where Google sends the browser after signing out. ${PUBLIC}`,
    noKey: true,
    ownMediaTypes: true,
    responses: { 200: page('A page saying so.'), 404: UNKNOWN },
  },
};
