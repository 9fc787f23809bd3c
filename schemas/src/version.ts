/** The product version, shown by the console and reported by `/api/health` and agents. */
export const PRODUCT_VERSION = '0.1.0';
