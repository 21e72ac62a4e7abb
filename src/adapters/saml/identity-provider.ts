/**
 * Our SAML 2.0 identity provider for mt workspaces (Google Workspace SSO), on samlify with an XML schema
 * validator (xmllint compiled to WebAssembly): it reads Google's AuthnRequest (HTTP-Redirect or HTTP-POST
 * binding) and makes the signed Response that the browser posts to Google's assertion consumer service.
 * No XML is written or signed by hand here.
 */
// the validator ships no types; its one export is `validate(xml): Promise<true>` (throws on a schema error)
// eslint-disable-next-line @typescript-eslint/no-require-imports
const validator = require('@authenio/samlify-xmllint-wasm') as { validate: (xml: string) => Promise<unknown> };
import * as samlify from 'samlify';

samlify.setSchemaValidator(validator);

const { binding } = samlify.Constants.namespace;
const EMAIL_NAME_ID = samlify.Constants.namespace.format.emailAddress;

/** What the customer enters in the domain's SSO profile, and where our IdP answers. */
export interface IdpEndpoints {
  readonly entityId: string;
  readonly ssoUrl: string;
  readonly signOutUrl: string;
  readonly metadataUrl: string;
}

export const idpEndpoints = (publicUrl: string, workspaceId: string): IdpEndpoints => {
  const base = `${publicUrl.replace(/\/+$/, '')}/v2/mt-sso/${workspaceId}`;
  return { entityId: base, ssoUrl: `${base}/sso`, signOutUrl: `${base}/signed-out`, metadataUrl: `${base}/metadata` };
};

export interface IdpKeys {
  readonly certificatePem: string;
  readonly privateKeyPem: string | null;
}

const identityProvider = (endpoints: IdpEndpoints, keys: IdpKeys) =>
  samlify.IdentityProvider({
    entityID: endpoints.entityId,
    signingCert: keys.certificatePem,
    ...(keys.privateKeyPem ? { privateKey: keys.privateKeyPem } : {}),
    wantAuthnRequestsSigned: false,
    nameIDFormat: [EMAIL_NAME_ID],
    singleSignOnService: [
      { Binding: binding.redirect, Location: endpoints.ssoUrl },
      { Binding: binding.post, Location: endpoints.ssoUrl },
    ],
    singleLogoutService: [{ Binding: binding.redirect, Location: endpoints.signOutUrl }],
  });

/** Google as a service provider of `domain`: its issuers (plain or domain-specific) and assertion consumer services. */
const googleIssuers = (domain: string): readonly string[] => ['google.com', `google.com/a/${domain}`];
export const isGoogleIssuer = (issuer: string, domain: string): boolean =>
  googleIssuers(domain).includes(issuer) || issuer.startsWith('https://accounts.google.com/samlrp/');
export const isGoogleAcs = (acs: string, domain: string): boolean =>
  acs === `https://www.google.com/a/${domain}/acs` || acs.startsWith('https://accounts.google.com/samlrp/acs?rpid=');

const googleServiceProvider = (issuer: string, acs: string) =>
  samlify.ServiceProvider({
    entityID: issuer,
    assertionConsumerService: [{ Binding: binding.post, Location: acs }],
    authnRequestsSigned: false,
    wantMessageSigned: true,
    wantAssertionsSigned: false,
  });

/** The IdP's metadata document (what an SP can import instead of typing the values). */
export const idpMetadataXml = (endpoints: IdpEndpoints, certificatePem: string): string =>
  identityProvider(endpoints, { certificatePem, privateKeyPem: null }).getMetadata();

export interface AuthnRequest {
  readonly id: string;
  readonly issuer: string;
  readonly acsUrl: string;
  readonly relayState: string | null;
}

export type ParsedAuthnRequest = { readonly ok: true; readonly request: AuthnRequest } | { readonly ok: false; readonly reason: string };

/**
 * Reads an AuthnRequest (schema-checked by samlify) and accepts it only from Google for the workspace's
 * domain: our assertions go nowhere but to Google's assertion consumer service.
 */
export const parseAuthnRequest = async (
  endpoints: IdpEndpoints,
  certificatePem: string,
  domain: string,
  via: { readonly binding: 'redirect'; readonly query: Record<string, string> } | { readonly binding: 'post'; readonly body: Record<string, string> },
): Promise<ParsedAuthnRequest> => {
  const fields = via.binding === 'redirect' ? via.query : via.body;
  if (typeof fields.SAMLRequest !== 'string' || fields.SAMLRequest === '') return { ok: false, reason: 'no SAMLRequest' };
  const idp = identityProvider(endpoints, { certificatePem, privateKeyPem: null });
  let extract: samlify.Extractor.ExtractorResult;
  try {
    const parsed = await idp.parseLoginRequest(googleServiceProvider('google.com', `https://www.google.com/a/${domain}/acs`), via.binding, via.binding === 'redirect' ? { query: fields } : { body: fields });
    extract = parsed.extract;
  } catch (err) {
    return { ok: false, reason: `the SAMLRequest could not be read (${(err as Error).message ?? err})` };
  }
  const request = extract.request as Record<string, string> | undefined;
  const issuer = typeof extract.issuer === 'string' ? extract.issuer : '';
  const acsUrl = request?.assertionConsumerServiceUrl ?? '';
  if (!request?.id) return { ok: false, reason: 'the AuthnRequest has no ID' };
  if (!isGoogleIssuer(issuer, domain)) return { ok: false, reason: `the AuthnRequest comes from ${issuer || 'no issuer'}, not from Google for ${domain}` };
  if (!isGoogleAcs(acsUrl, domain)) return { ok: false, reason: `the assertion consumer service ${acsUrl || '(none)'} is not Google's for ${domain}` };
  return { ok: true, request: { id: request.id, issuer, acsUrl, relayState: typeof fields.RelayState === 'string' ? fields.RelayState : null } };
};

export interface SignedResponse {
  readonly acsUrl: string;
  /** base64 of the signed samlp:Response, for the HTTP-POST binding */
  readonly samlResponse: string;
  readonly relayState: string | null;
}

/** The signed Response asserting `email` (NameID, email format) for Google's request. */
export const signedLoginResponse = async (endpoints: IdpEndpoints, keys: IdpKeys, request: AuthnRequest, email: string): Promise<SignedResponse> => {
  const idp = identityProvider(endpoints, keys);
  const sp = googleServiceProvider(request.issuer, request.acsUrl);
  const requestInfo = { extract: { request: { id: request.id } } };
  const made = (await idp.createLoginResponse(sp, requestInfo, 'post', { email }, request.relayState === null ? {} : { relayState: request.relayState })) as {
    context: string;
    entityEndpoint: string;
  };
  return { acsUrl: made.entityEndpoint, samlResponse: made.context, relayState: request.relayState };
};
