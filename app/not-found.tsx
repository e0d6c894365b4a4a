import Link from "next/link";

export default function NotFound() {
  return (
    <main className="flex h-full flex-col items-center justify-center gap-3 p-8 text-center">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="text-zinc-500 dark:text-zinc-400">
        This conversation does not exist or is not yours.
      </p>
      <Link href="/" className="text-indigo-600 underline">
        Start a new chat
      </Link>
    </main>
  );
}
