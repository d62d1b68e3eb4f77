/** A form's own error (one no field holds), announced by screen readers when it appears. */
export function FormAlert({ message, className = "" }: { message: string | null; className?: string }) {
  if (!message) return null;
  return (
    <p role="alert" className={`text-sm text-red-700 ${className}`.trim()}>
      {message}
    </p>
  );
}
