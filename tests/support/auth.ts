// A real guest session from Better Auth, as cookie headers for calling route handlers directly.
import { getAuth } from "@/lib/auth/server";

export async function guestHeaders(): Promise<Headers> {
  const response = await getAuth().api.signInAnonymous({
    headers: new Headers({ origin: "http://localhost:3000", host: "localhost:3000" }),
    asResponse: true,
  });
  const cookies = response.headers.getSetCookie().map((c) => c.split(";")[0]);
  if (cookies.length === 0) throw new Error(`no session cookie (status ${response.status})`);
  return new Headers({
    cookie: cookies.join("; "),
    origin: "http://localhost:3000",
    host: "localhost:3000",
  });
}

const BASE = "http://localhost:3000";
/** The password every account made by these helpers has. */
export const TEST_PASSWORD = "correct horse battery";

/** The session cookie `response` set, as headers for the next same-origin request. */
export function cookieHeaders(response: Response): Headers {
  const cookies = response.headers.getSetCookie().map((c) => c.split(";")[0]);
  if (cookies.length === 0) throw new Error(`no session cookie (status ${response.status})`);
  return new Headers({ cookie: cookies.join("; "), origin: BASE, host: "localhost:3000" });
}

/** Signs up a fresh account; with a guest's cookie, that guest is linked into it. */
export async function signUp(email: string, from?: Headers): Promise<Headers> {
  const response = await getAuth().api.signUpEmail({
    body: { email, password: TEST_PASSWORD, name: "Ada" },
    headers: from ?? new Headers({ origin: BASE, host: "localhost:3000" }),
    asResponse: true,
  });
  return cookieHeaders(response);
}

/** Signs in to an existing account from a guest session, which links the guest into it. */
export async function signIn(email: string, from: Headers): Promise<Headers> {
  const response = await getAuth().api.signInEmail({
    body: { email, password: TEST_PASSWORD },
    headers: from,
    asResponse: true,
  });
  return cookieHeaders(response);
}
