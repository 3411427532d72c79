export * from "./ghana-card";
export * from "./identity-documents";
export * from "./pasted-text";
export * from "./phone";
export * from "./remote-token-payload";
export * from "./text-fields";
export * from "./token-forms";
export * from "./sms-token";
