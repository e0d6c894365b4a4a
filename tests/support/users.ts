// Test users inserted straight into the users table (the auth flow itself is covered by e2e).
import { randomUUID } from "node:crypto";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";

export async function createTestUser(name = "tester"): Promise<string> {
  const id = randomUUID();
  await getDb()
    .insert(users)
    .values({ id, name, email: `${id}@example.test`, isAnonymous: true });
  return id;
}
