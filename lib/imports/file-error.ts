import { AppError } from "@/lib/errors";

/** A file that cannot be imported at all: 400 `invalid_file` with the reason, nothing kept. */
export class ImportFileError extends AppError {
  static readonly brand: string = "console.ImportFileError";

  constructor(message: string) {
    super(400, "invalid_file", message);
  }
}
