import { z } from "zod";

export const loginSchema = z.object({
  email: z.string().trim().toLowerCase().min(1, "Enter your email.").max(254).email("Enter a valid email address."),
  password: z.string().min(1, "Enter your password.").max(200, "That password is too long."),
});
export type LoginInput = z.input<typeof loginSchema>;
