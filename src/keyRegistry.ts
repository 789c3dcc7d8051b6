// Where `keys` keeps integrations: the master's api_integrations (normally), or
// the demo read store's own table (`keys --demo`). One interface, so the command
// parses, prints and checks the same way for both.
export interface IntegrationRow {
  id: number
  name: string
  is_active: number
  created_at: string
}

export interface KeyRegistry {
  /** stores the key's SHA-256 (never the key) and returns the new integration's id */
  create(name: string, keySha256: string): Promise<number>
  list(): Promise<IntegrationRow[]>
  /** false when no integration has that id */
  revoke(id: number): Promise<boolean>
  close(): Promise<void>
  /** when a change reaches the API */
  takesEffect: string
}
