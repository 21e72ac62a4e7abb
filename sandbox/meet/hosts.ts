/** The Meet replica's hosts, and where a redirect wall or ending sends the page (replica-shapes.ts). */
import type { RedirectTargets } from '../replica-shapes';

export const MEET_HOST = 'meet.google.com';
export const SIGN_IN_HOST = 'accounts.google.com';
/** Meet's product site (a block or an ending may send the page there) */
export const PRODUCT_HOST = 'workspace.google.com';

export const meetRedirects: RedirectTargets = {
  sign_in: `https://${SIGN_IN_HOST}/ServiceLogin?continue=${encodeURIComponent(`https://${MEET_HOST}/`)}`,
  landing: `https://${MEET_HOST}/`,
  product: `https://${PRODUCT_HOST}/products/meet/`,
};
