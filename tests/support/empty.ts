// Stands in for the `server-only` guard under vitest, which does not resolve react-server.
export {};
