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
