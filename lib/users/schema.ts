import { z } from "zod";
import { passwordShape } from "@/lib/auth/password-rule";
import { problem } from "@/lib/i18n/problem";
import { LOCALES } from "@/lib/i18n/locales";
import { idSchema } from "@/lib/validation/id";
import { safeText } from "@/lib/validation/text";

// One schema per users' form or API body, shared by browser and server; a password's strength is
// decided server-side by passwordProblem().

export const ROLES = ["admin", "staff"] as const;

const name = safeText(problem("users.nameRequired")).trim().min(1, problem("users.nameRequired")).max(100, problem("users.nameTooLong", { max: 100 }));
const email = z.string({ message: problem("users.emailRequired") }).trim().toLowerCase().max(254).email(problem("users.emailInvalid"));
const role = z.enum(ROLES, { message: problem("users.roleInvalid") });

/** The most branches one user may be limited to. */
export const MAX_USER_BRANCHES = 1000;

/** null: every branch; else 1–1000 branch ids (their existence is checked by the mutation). */
const branchIds = z
  .array(z.number({ message: problem("users.branchIdNumber") }).int(problem("users.branchIdWhole")).positive(problem("users.branchIdPositive")), {
    message: problem("users.branchIdsShape"),
  })
  .min(1, problem("users.branchIdsEmpty"))
  .max(MAX_USER_BRANCHES, problem("users.branchIdsTooMany", { max: MAX_USER_BRANCHES }))
  .transform((ids) => [...new Set(ids)].sort((a, b) => a - b))
  .nullable();

const ADMIN_SCOPE = problem("users.adminScope");

/** Who a user is: the fields every way of making one asks for (the API, /users, `npm run user:create`). */
export const userIdentitySchema = z.object({ name, email, role });

/** New user: an initial password, or none (a one-time set-password link is made instead). */
export const userCreateSchema = userIdentitySchema
  .extend({
    password: z
      .union([z.literal(""), passwordShape])
      .optional()
      .transform((v) => v || undefined),
    branch_ids: branchIds.optional(),
  })
  .strict()
  .refine((v) => v.role !== "admin" || v.branch_ids === undefined, { path: ["branch_ids"], message: ADMIN_SCOPE });

/** PATCH /api/v1/users/{id}: any of name, role, active, branch_ids (for staff; the mutation checks the user's role). */
export const userUpdateSchema = z
  .object({
    name: name.optional(),
    role: role.optional(),
    active: z.boolean({ message: problem("users.activeBoolean") }).optional(),
    branch_ids: branchIds.optional(),
  })
  .strict()
  .refine((v) => v.name !== undefined || v.role !== undefined || v.active !== undefined || v.branch_ids !== undefined, problem("users.updateEmpty"))
  .refine((v) => v.role !== "admin" || v.branch_ids === undefined, { path: ["branch_ids"], message: ADMIN_SCOPE });

export { ADMIN_SCOPE };
export type UserUpdateInput = z.output<typeof userUpdateSchema>;

export const userIdSchema = idSchema(problem("users.idInvalid"));

/** /users' "Branches…" dialog: a staff member's branches (null: every branch). */
export const userBranchesSchema = z.object({ id: userIdSchema, branch_ids: branchIds }).strict();

/** /account: change your own password. */
export const passwordChangeSchema = z
  .object({
    current: z.string({ message: problem("users.currentRequired") }).min(1, problem("users.currentRequired")).max(200),
    password: passwordShape,
    confirm: z.string(),
  })
  .refine((v) => v.password === v.confirm, { path: ["confirm"], message: problem("users.passwordsDiffer") });

/** The set-password page (from a one-time link). */
export const passwordSetSchema = z
  .object({ token: z.string().max(100), password: passwordShape, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { path: ["confirm"], message: problem("users.passwordsDiffer") });
export type PasswordSetInput = z.input<typeof passwordSetSchema>;

/** /account's language and PATCH /api/v1/users/me: one of the console's languages, or null to follow the browser. */
export const userLocaleSchema = z
  .object({ locale: z.enum(LOCALES, { message: problem("users.localeInvalid") }).nullable() })
  .strict();
export type UserLocaleInput = z.output<typeof userLocaleSchema>;

/** A user as the API answers it (docs/API.md): never a password or its hash. */
export const userSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    role: z.enum(ROLES),
    branch_ids: z.array(z.number().int()).nullable().meta({ description: "null: every branch (always for admins); else the branches a staff member is limited to." }),
    active: z.boolean(),
    two_factor: z.boolean().meta({ description: "Whether the user has set up two-factor codes." }),
    created_at: z.iso.datetime(),
    last_sign_in_at: z.iso.datetime().nullable(),
    locale: z.enum(LOCALES).nullable().meta({ description: "The language the user chose for the console; null: their browser's (docs/API.md, Languages)." }),
  })
  .meta({ id: "User" });
export type UserBody = z.output<typeof userSchema>;

/** The 201 of a new user: without a password, the one-time set-password link, shown this once. */
export const createdUserSchema = userSchema.extend({ set_password_url: z.string().optional() }).meta({ id: "CreatedUser" });
