// Better Auth on Baton's database: guests by default (anonymous plugin), email + password to
// keep a guest's threads and handoffs (account linking moves them), and the request → user
// resolver.
import "server-only";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { createAuthEndpoint, sessionMiddleware } from "better-auth/api";
import { nextCookies } from "better-auth/next-js";
import { anonymous } from "better-auth/plugins";
import { z } from "zod";
import { type ServerEnv, serverEnv } from "@/core/env";
import { BatonError } from "@/core/errors";
import { logFromLibrary } from "@/core/log";
import { dataDir, getDb } from "@/db/client";
import {
  type ContentIdFor,
  markAccountNoticesSeen,
  mergeGuestHandoffs,
  type PendingNotice,
  pendingAccountNotices,
} from "@/db/queries/handoff-merge";
import { transferProfiles } from "@/db/queries/profile-transfer";
import { transferThreads } from "@/db/queries/threads";
import { transferToolServers } from "@/db/queries/tool-server-transfer";
import { authAccounts, authSessions, authVerifications, users } from "@/db/schema";
import { HANDOFF_SCHEMA_VERSION, type HandoffArtifact } from "@/lib/handoff/artifact";
import { contentId } from "@/lib/handoff/content-id";
import { resolveAuthSecret } from "./secret";

function extraHosts(env: ServerEnv): string[] {
  return env.BATON_ALLOWED_HOSTS ?? [];
}

/** Stored artifacts are complete (every field filled in), which is what the id is taken over. */
const storedContentId: ContentIdFor = ({ key, revision, artifact }) =>
  contentId({
    schema_version: HANDOFF_SCHEMA_VERSION,
    handoff_key: key,
    revision,
    artifact: artifact as unknown as HandoffArtifact,
  });

/**
 * `POST /api/auth/link-notices/seen {ids}`: the app shell marks the notices it has shown, so
 * each is shown once. Marking happens after showing, not while rendering: a render can be
 * dropped before it reaches the screen (signing in navigates and then refreshes at once).
 */
const linkNotices = () => ({
  id: "baton-link-notices",
  endpoints: {
    markLinkNoticesSeen: createAuthEndpoint(
      "/link-notices/seen",
      {
        method: "POST",
        body: z.object({ ids: z.array(z.uuid()).min(1).max(100) }),
        use: [sessionMiddleware],
      },
      async (ctx) => {
        const marked = await markAccountNoticesSeen({
          userId: ctx.context.session.user.id,
          ids: ctx.body.ids,
        });
        return ctx.json({ marked });
      },
    ),
  },
});

function createAuth() {
  const env = serverEnv();
  return betterAuth({
    secret: resolveAuthSecret(dataDir(env), env),
    // localhost and 127.0.0.1 on any port work with no configuration.
    baseURL: env.BETTER_AUTH_URL ?? {
      allowedHosts: ["localhost", "localhost:*", "127.0.0.1", "127.0.0.1:*", ...extraHosts(env)],
      protocol: "http",
      fallback: `http://localhost:${env.PORT ?? 3000}`,
    },
    trustedOrigins: (request) => {
      const origin = request?.headers.get("origin");
      const local = origin && /^https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/.test(origin);
      return [
        ...(local ? [origin] : []),
        ...extraHosts(env).map((h) => `https://${h}`),
        // The same public origins the request policy accepts (a deployment behind a proxy).
        ...(env.BATON_PUBLIC_ORIGINS ?? []),
      ];
    },
    database: drizzleAdapter(getDb(), {
      provider: "pg",
      schema: {
        user: users,
        session: authSessions,
        account: authAccounts,
        verification: authVerifications,
      },
    }),
    emailAndPassword: { enabled: true, autoSignIn: true, minPasswordLength: 8 },
    // Off: app/api/auth/[...all]/route.ts applies Baton's limits (lib/http/auth-limits.ts), the
    // one documented set (README "Rate limits").
    rateLimit: { enabled: false },
    // Its default logger prints whole errors, database ones with their query parameters.
    logger: { log: (level, message, ...args) => logFromLibrary("auth", level, message, args) },
    plugins: [
      anonymous({
        onLinkAccount: async ({ anonymousUser, newUser }) => {
          // The guest account is deleted after linking: move what it owns first.
          const move = { fromUserId: anonymousUser.user.id, toUserId: newUser.user.id };
          // Tool servers first: a renamed guest server is followed by the guest's agents only;
          // then profiles: a renamed guest profile is followed by the guest's threads only.
          await transferToolServers(move);
          await transferProfiles(move);
          await transferThreads(move);
          // A key both own is kept twice: the guest's becomes `<key>.guest` and a notice says so.
          await mergeGuestHandoffs({ ...move, contentIdFor: storedContentId });
        },
      }),
      linkNotices(),
      nextCookies(),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const globalForAuth = globalThis as unknown as { batonAuth?: Auth };

export function getAuth(): Auth {
  globalForAuth.batonAuth ??= createAuth();
  return globalForAuth.batonAuth;
}

export interface Actor {
  id: string;
  isAnonymous: boolean;
  email: string | null;
  name: string;
}

export async function currentActor(headers: Headers): Promise<Actor | null> {
  const session = await getAuth().api.getSession({ headers });
  if (!session) return null;
  const user = session.user as typeof session.user & { isAnonymous?: boolean | null };
  return {
    id: user.id,
    isAnonymous: Boolean(user.isAnonymous),
    email: user.isAnonymous ? null : user.email,
    name: user.name,
  };
}

/** The signed-in user, or a 401 `unauthorized:session`. */
export async function requireActor(request: Request): Promise<Actor> {
  const actor = await currentActor(request.headers);
  if (!actor) throw new BatonError("unauthorized:session", "Sign in or start a guest session.");
  return actor;
}

/** The account-linking notices the user has not seen; the app shell shows them. */
export async function pendingLinkNotices(actor: Actor): Promise<PendingNotice[]> {
  if (actor.isAnonymous) return [];
  return pendingAccountNotices({ userId: actor.id });
}
