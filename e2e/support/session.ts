import { expect, test as base } from "@playwright/test";
import { signInByApi, type DemoUsername, type StorageState } from "./auth";
import { demoAccount } from "@/lib/staff/demo-accounts";

/**
 * Browser pages signed in as a demo account, for the token specs. The sign-in itself is the auth
 * fixtures' (the real endpoint, once per account per worker); this only makes the page fixture
 * start signed in, as `test.use({ account: "teller.accra" })` chooses.
 */
export const test = base.extend<{ account: DemoUsername }, { sessionStates: Map<DemoUsername, StorageState> }>({
  account: ["teller.kumasi", { option: true }],
  sessionStates: [
    async ({}, provide) => {
      await provide(new Map());
    },
    { scope: "worker" },
  ],
  storageState: async ({ account, sessionStates }, provide) => {
    let state = sessionStates.get(account);
    if (!state) {
      state = await signInByApi(account, demoAccount(account).password);
      sessionStates.set(account, state);
    }
    await provide(state);
  },
});

export { expect };
