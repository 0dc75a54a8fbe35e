// Tests build their own configuration; keep the developer's environment out.
process.env.JOBS = "off";
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? "silent";

// Inside a withTx callback, a read through a context that lacks the transaction is a bug (a captured outer context).
import { checkTransactionUse } from "../src/platform/db/transactions.ts";
checkTransactionUse();

// A list served by kept statements must build the very same SQL (src/platform/paging/paging.ts).
import { checkKeptLists } from "../src/platform/paging/paging.ts";
checkKeptLists();

// An env its test file never closed is closed (and so scanned for secrets at rest) after the last file.
import { afterAll } from "bun:test";
import { closeUnclosedEnvs } from "./secret-scan.ts";
afterAll(closeUnclosedEnvs);
