/**
 * The only differences between Meeting BaaS's API and ours: the spec is theirs with brand names replaced
 * (its "Naming of identifiers"). The official SDK speaks Meeting BaaS; a proxy applying exactly these
 * renames, in both directions, lets it speak to us.
 *
 * - the key header: `x-meeting-baas-api-key` is `x-service-api-key`;
 * - paths: `zoom_oauth_connections` is `vc_oauth_connections`, `zoom-credentials` is `vc-credentials`;
 * - field names (bodies and queries): a name starting `zoom_` starts `vc_` (`zoom_config`, `zoom_obf_token`,
 *   `zoom_sdk_id`, `zoom_user_id`, `zoom_access_token_url`, ...);
 * - a calendar record's provider-specific id: `google_id` is `provider_id`;
 * - values: a meeting platform named by its brand (`meeting_platform`: `zoom`, `meet`, `teams`) is named by
 *   its token (`vc`, `mt`, `tm`).
 * Nothing else is touched: meeting URLs stay the real platforms' (the spec maps zoom.us to vc itself).
 */

export const SDK_KEY_HEADER = 'x-meeting-baas-api-key';
export const OUR_KEY_HEADER = 'x-service-api-key';

const PATH_RENAMES: readonly (readonly [theirs: string, ours: string])[] = [
  ['zoom_oauth_connections', 'vc_oauth_connections'],
  ['zoom-credentials', 'vc-credentials'],
];

const PLATFORM_TOKENS: readonly (readonly [theirs: string, ours: string])[] = [
  ['zoom', 'vc'],
  ['meet', 'mt'],
  ['teams', 'tm'],
];

/** Fields whose value is a platform's name. */
const PLATFORM_FIELDS: ReadonlySet<string> = new Set(['meeting_platform']);

type Direction = 'to-us' | 'to-sdk';

const swap = (pairs: readonly (readonly [string, string])[], value: string, direction: Direction): string => {
  const found = pairs.find(([theirs, ours]) => (direction === 'to-us' ? theirs : ours) === value);
  return found === undefined ? value : direction === 'to-us' ? found[1] : found[0];
};

const FIELD_RENAMES: readonly (readonly [theirs: string, ours: string])[] = [['google_id', 'provider_id']];

export const renameField = (name: string, direction: Direction): string => {
  const renamed = swap(FIELD_RENAMES, name, direction);
  if (renamed !== name) return renamed;
  if (direction === 'to-us') return name.startsWith('zoom_') ? `vc_${name.slice('zoom_'.length)}` : name;
  return name.startsWith('vc_') ? `zoom_${name.slice('vc_'.length)}` : name;
};

const renameValue = (field: string, value: unknown, direction: Direction): unknown =>
  PLATFORM_FIELDS.has(field) && typeof value === 'string' ? swap(PLATFORM_TOKENS, value, direction) : value;

/** A JSON value with every field name (and platform value) renamed, at any depth. */
export const renameJson = (value: unknown, direction: Direction): unknown => {
  if (Array.isArray(value)) return value.map((item) => renameJson(item, direction));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      const renamed = renameField(key, direction);
      return [renamed, renameValue(renamed, renameJson(inner, direction), direction)];
    }),
  );
};

/** A request target (path and query) of the SDK as ours. */
export const renameTarget = (target: string): string => {
  const url = new URL(target, 'http://proxy.invalid');
  const path = url.pathname
    .split('/')
    .map((segment) => swap(PATH_RENAMES, segment, 'to-us'))
    .join('/');
  const query = new URLSearchParams();
  for (const [name, value] of url.searchParams) {
    const renamed = renameField(name, 'to-us');
    query.append(renamed, String(renameValue(renamed, value, 'to-us')));
  }
  const search = query.toString();
  return `${path}${search === '' ? '' : `?${search}`}`;
};
