// The signed-in user of the page being rendered. The layout and the page of one request both
// ask; React's `cache` lets the session lookup (a database read) run once per request.
import { headers } from "next/headers";
import { cache } from "react";
import { type Actor, currentActor } from "./server";

export const pageActor = cache(async (): Promise<Actor | null> => currentActor(await headers()));
