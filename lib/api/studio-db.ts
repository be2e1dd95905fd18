/** The database handle of the Studio's pages and server actions (the edge opens it; pages never reach db/). */
import { getDb, type Db } from "@/db/client";
import { getEnv } from "@/lib/env";

export const studioDb = (): Db => getDb(getEnv());
