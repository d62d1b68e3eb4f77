// Node-only start-up work, imported by instrumentation.ts when the server boots.

export function checkEnvironment() {
  if (process.env.NODE_ENV === "production" && !process.env.NEXTAUTH_SECRET) {
    console.error(
      "Refusing to start: NEXTAUTH_SECRET is not set. Set it to a long random value " +
        "(e.g. `openssl rand -base64 32`); it signs the session cookies.",
    );
    process.exit(1);
  }
}
