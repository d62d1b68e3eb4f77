import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { requestInfoFrom } from "@/lib/audit/context";
import { authOptions } from "@/lib/auth/options";
import { recordLocked, throttleWait } from "@/lib/auth/throttle";
import { loginSchema } from "@/lib/validation/auth";

const handler = NextAuth(authOptions);

type Context = { params: Promise<{ nextauth: string[] }> };

export function GET(request: NextRequest, context: Context) {
  return handler(request, context);
}

/** Sign-ins are throttled before next-auth sees them: 429 with Retry-After while paused. */
export async function POST(request: NextRequest, context: Context) {
  if (new URL(request.url).pathname.endsWith("/callback/credentials")) {
    const form = await request.clone().formData().catch(() => null);
    const email = loginSchema.shape.email.safeParse(form?.get("email") ?? "");
    const info = requestInfoFrom(request.headers);
    const wait = await throttleWait(email.success ? email.data : "", info.ip ?? "unknown");
    if (wait > 0) {
      await recordLocked(email.success ? email.data : "", info, wait);
      const url = new URL("/login?error=TooManyAttempts", request.url).toString();
      return Response.json(
        { url, error: { code: "too_many_attempts", message: "Too many sign-in attempts. Try again later." } },
        { status: 429, headers: { "Retry-After": String(wait), "Cache-Control": "no-store" } },
      );
    }
  }
  return handler(request, context);
}
