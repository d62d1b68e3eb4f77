import { z } from "zod";
import { passwordShape } from "@/lib/auth/password-rule";
import { idSchema } from "@/lib/validation/id";
import { safeText } from "@/lib/validation/text";

// One schema per users' form or API body, shared by browser and server; a password's strength is
// decided server-side by passwordProblem().

export const ROLES = ["admin", "staff"] as const;

const name = safeText("Enter a name.").trim().min(1, "Enter a name.").max(100, "Use at most 100 characters.");
const email = z.string({ message: "Enter an email address." }).trim().toLowerCase().max(254).email("Enter a valid email address.");
const role = z.enum(ROLES, { message: "Choose admin or staff." });

/** The most branches one user may be limited to. */
export const MAX_USER_BRANCHES = 1000;

/** null: every branch; else 1–1000 branch ids (their existence is checked by the mutation). */
const branchIds = z
  .array(z.number({ message: "Give branch ids as numbers." }).int("Give branch ids as whole numbers.").positive("Give branch ids as whole numbers of 1 or more."), {
    message: "Give branch_ids as null (every branch) or a list of branch ids.",
  })
  .min(1, "Give at least one branch, or null for every branch.")
  .max(MAX_USER_BRANCHES, `Give at most ${MAX_USER_BRANCHES} branches.`)
  .transform((ids) => [...new Set(ids)].sort((a, b) => a - b))
  .nullable();

const ADMIN_SCOPE = "Administrators always see every branch: give branch_ids for staff only.";

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
    active: z.boolean({ message: "active must be true or false." }).optional(),
    branch_ids: branchIds.optional(),
  })
  .strict()
  .refine((v) => v.name !== undefined || v.role !== undefined || v.active !== undefined || v.branch_ids !== undefined, "Give name, role, active or branch_ids.")
  .refine((v) => v.role !== "admin" || v.branch_ids === undefined, { path: ["branch_ids"], message: ADMIN_SCOPE });

export { ADMIN_SCOPE };
export type UserUpdateInput = z.output<typeof userUpdateSchema>;

export const userIdSchema = idSchema("The user id must be a whole number of 1 or more.");

/** /users' "Branches…" dialog: a staff member's branches (null: every branch). */
export const userBranchesSchema = z.object({ id: userIdSchema, branch_ids: branchIds }).strict();

/** /account: change your own password. */
export const passwordChangeSchema = z
  .object({
    current: z.string({ message: "Enter your current password." }).min(1, "Enter your current password.").max(200),
    password: passwordShape,
    confirm: z.string(),
  })
  .refine((v) => v.password === v.confirm, { path: ["confirm"], message: "The two passwords differ." });

/** The set-password page (from a one-time link). */
export const passwordSetSchema = z
  .object({ token: z.string().max(100), password: passwordShape, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { path: ["confirm"], message: "The two passwords differ." });
export type PasswordSetInput = z.input<typeof passwordSetSchema>;

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
  })
  .meta({ id: "User" });
export type UserBody = z.output<typeof userSchema>;

/** The 201 of a new user: without a password, the one-time set-password link, shown this once. */
export const createdUserSchema = userSchema.extend({ set_password_url: z.string().optional() }).meta({ id: "CreatedUser" });
