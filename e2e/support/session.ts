import { expect, test as authTest, type DemoUsername } from "./auth";

/**
 * Browser pages signed in as a demo account, for the token specs: the auth fixtures' `test`
 * (the real sign-in endpoint, once per account per worker) with the page starting signed in as
 * `test.use({ account: "teller.accra" })` chooses. One fixture chain, so a spec that also asks for
 * `apiAs` or `sessionOf` shares the same signed-in sessions.
 */
export const test = authTest.extend<{ account: DemoUsername }>({
  account: ["teller.kumasi", { option: true }],
  storageState: async ({ account, sessionOf }, provide) => {
    await provide(await sessionOf(account));
  },
});

export { expect };
