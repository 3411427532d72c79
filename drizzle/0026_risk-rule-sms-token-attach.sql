-- Rule 10 (ADR 0037, issue 34): every token a supervisor enters from a customer's SMS is a risk
-- signal; version 1 flags each attach, as a staff case of the attacher (head office's only).
INSERT INTO "risk_rule_versions" ("rule_key", "version", "params", "severity", "mode", "status", "approved_at", "reason") VALUES
  ('sms_token_attach', 1, '{"windowHours":24,"maxAttaches":0}', 'medium', 'live', 'active', now(), 'shipped default');
