// next-auth's session cookie: `__Secure-` prefixed when NEXTAUTH_URL is https, plain otherwise.
// One list for the session reader, sign-out and the proxy's shortcut to /login (its own module:
// tests mock the session reader, and the proxy must not import server-only code).
export const SESSION_COOKIE_NAMES = ["__Secure-next-auth.session-token", "next-auth.session-token"] as const;
