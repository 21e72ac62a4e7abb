/** The Zoom replica's hosts, and where a redirect wall or ending sends the page (replica-shapes.ts). */
import type { RedirectTargets } from '../replica-shapes';

/** zoom.us, the web client's host, and regional subdomains of personal links (the driver's family lists the same) */
export const ZOOM_HOSTS = ['zoom.us', 'app.zoom.us', 'us05web.zoom.us', 'us06web.zoom.us'];
/** Zoom's product site (a block or an ending may send the page there) */
export const PRODUCT_HOST = 'www.zoom.com';

export const zoomRedirects: RedirectTargets = { sign_in: 'https://zoom.us/signin', landing: 'https://zoom.us/', product: `https://${PRODUCT_HOST}/` };
