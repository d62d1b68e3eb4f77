// `npm run user:create -- --email a@b.c --name "A B" --role admin`: adds a user for a real
// deployment. The password is asked for on the terminal without echo (or read from stdin).
import { parseArgs } from "node:util";
import { z } from "zod";
import { hashPassword } from "@/lib/auth/password";
import { openDatabase } from "@/lib/db/client";
import { safeText } from "@/lib/validation/text";
import { runScript } from "./script-utils";

const schema = z.object({
  email: z.string().trim().toLowerCase().email("--email must be an email address"),
  name: safeText("--name is required").trim().min(1, "--name is required").max(100),
  role: z.enum(["admin", "staff"], { message: "--role must be admin or staff" }),
  password: z.string().min(12, "the password needs at least 12 characters").max(200),
});

async function askHidden(prompt: string): Promise<string> {
  const { stdin, stdout } = process;
  if (!stdin.isTTY) {
    let text = "";
    for await (const chunk of stdin) text += chunk;
    return text.split(/\r?\n/)[0] ?? "";
  }
  stdout.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding("utf8");
  return new Promise((resolve, reject) => {
    let value = "";
    const onData = (char: string) => {
      for (const c of char) {
        if (c === "\r" || c === "\n") {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off("data", onData);
          stdout.write("\n");
          return resolve(value);
        }
        if (c === "\u0003") {
          stdin.setRawMode(false);
          return reject(new Error("cancelled"));
        }
        if (c === "\u007f") value = value.slice(0, -1);
        else value += c;
      }
    };
    stdin.on("data", onData);
  });
}

runScript(async () => {
  const { values } = parseArgs({
    options: { email: { type: "string" }, name: { type: "string" }, role: { type: "string", default: "staff" } },
  });
  const password = await askHidden("Password (not shown): ");
  if (process.stdin.isTTY) {
    const again = await askHidden("Repeat the password: ");
    if (again !== password) throw new Error("the passwords do not match");
  }
  const input = schema.safeParse({ ...values, password });
  if (!input.success) throw new Error(input.error.issues.map((i) => i.message).join("; "));
  const database = await openDatabase();
  try {
    const { email, name, role } = input.data;
    const user = await database.prisma.user.create({
      data: { email, name, role, password_hash: await hashPassword(input.data.password) },
      select: { id: true, email: true, role: true },
    });
    console.log(`Created ${user.role} ${user.email} (id ${user.id}).`);
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") throw new Error("a user with that email already exists");
    throw error;
  } finally {
    await database.close();
  }
});
