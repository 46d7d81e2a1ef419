/** Key-value storage (the session, base settings, prompts' days): what stores need of a platform. */
export interface KeyValueStorage {
  get(key: string): string | null
  set(key: string, value: string): void
  remove(key: string): void
}
