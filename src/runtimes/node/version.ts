/** The Node.js version tabcode's `node` reports (the API level its built-ins follow). */
export const NODE_VERSION = 'v22.12.0';
