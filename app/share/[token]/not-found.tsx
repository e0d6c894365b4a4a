import Link from "next/link";

export default function SharedThreadNotFound() {
  return (
    <main className="flex h-full flex-col items-center justify-center gap-3 p-8 text-center">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="text-zinc-600 dark:text-zinc-400">
        This share link does not exist or was revoked by the thread's owner.
      </p>
      <Link href="/" className="text-indigo-700 underline dark:text-indigo-300">
        Start your own chat
      </Link>
    </main>
  );
}
