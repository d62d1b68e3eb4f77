// next-auth's session cookie: `__Secure-` prefixed when NEXTAUTH_URL is https, plain otherwise.
// Its own module so the session reader and sign-out share it (and tests can mock either).
export const SESSION_COOKIE_NAMES = ["__Secure-next-auth.session-token", "next-auth.session-token"] as const;
