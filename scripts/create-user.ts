// `npm run user:create -- --email a@b.c --name "A B" --role admin`: adds a user for a real
// deployment (the first admin; later users are made on /users). The password is asked for on the
// terminal without echo (or read from stdin), and must pass the same rule as everywhere.
import { parseArgs } from "node:util";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { createTranslator } from "use-intl/core";
import { catalogue } from "@/lib/i18n/catalogues";
import { problemWords } from "@/lib/i18n/problem";
import { createUser } from "@/lib/users/mutations";
import { userIdentitySchema } from "@/lib/users/schema";
import { runScript } from "./script-utils";

const schema = userIdentitySchema;
// Messages of lib code are problem keys (lib/i18n/problem.ts): an operator's terminal reads English.
// use-intl's own translator: next-intl's entry needs React's client build, which this script's conditions leave out.
const problems = createTranslator({ locale: "en", messages: catalogue("en"), namespace: "problems" }) as unknown as Parameters<typeof problemWords>[0];
const words = (text: string) => problemWords(problems, text);

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
  const input = schema.safeParse(values);
  if (!input.success) throw new Error(input.error.issues.map((i) => `--${i.path.join(".")}: ${words(i.message)}`).join("; "));
  try {
    // The same code and password rule as the users page (lib/users): checked, hashed, audited.
    const { user } = await createUser({ ...input.data, password }, null);
    console.log(`Created ${user.role} ${user.email} (id ${user.id}).`);
  } catch (error) {
    if (AppError.is(error)) throw new Error(words(error.message));
    throw error;
  } finally {
    await (await db()).close();
  }
});
