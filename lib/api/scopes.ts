/** What a key may do: issue tokens, read them (and the purposes). Plain data for pages and the CLI. */
export const API_SCOPES = ["tokens:write", "tokens:read"] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const apiScopeLabels: Record<ApiScope, string> = {
  "tokens:write": "Issue tokens",
  "tokens:read": "Read tokens and purposes",
};

export function isApiScope(value: string): value is ApiScope {
  return (API_SCOPES as readonly string[]).includes(value);
}
