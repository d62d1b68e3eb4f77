export const dynamic = "force-dynamic";

export default function Page() {
  return (
    <main>
      <h1>Framework floor</h1>
      <p>Rendered at {new Date().toISOString()}.</p>
    </main>
  );
}
