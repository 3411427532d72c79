/** Who makes a change: a signed-in administrator, or a command run on the server. */
export type Actor = { userId: string; username: string } | { system: string };

/** The audit event's actor and label for it. */
export const actorOf = (actor: Actor) => ("system" in actor ? null : actor);
export const actorLabelOf = (actor: Actor) => ("system" in actor ? actor.system : undefined);
