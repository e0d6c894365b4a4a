// What a query runs on: the database, or a transaction a caller opened on it. Every query takes
// an `Executor` (or a `Tx` when it must run inside a caller's transaction), so callers compose
// queries in their own transactions.
import type { Database } from "./client";

export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type Executor = Database | Tx;
