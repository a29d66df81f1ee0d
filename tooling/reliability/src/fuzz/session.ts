/** A logged-in user the fuzzer acts as. */
export interface Credentials {
  id: number
  /** `Bearer <access token>`. */
  authorization: string
  /** The user's password and tokens: none may ever show up in a log line. */
  secrets: string[]
}

/** In a generated URL: the id of the session's user (so requests on "my own" resources reach the handler). */
export const selfId = '{self}'
/** As a generated `Authorization` header: the session's valid bearer token. */
export const sessionAuthorization = '{session}'

/**
 * The user authenticated operations run as. Registered and logged in on first use (through the API's
 * own routes), and again after an answer shows the token no longer works (the user deleted itself,
 * changed its password, or was logged out): the fuzzer keeps reaching the handlers behind the auth check.
 */
export class Session {
  private current: Credentials | undefined
  private users = 0
  /** Every secret of every user this session has been: for the log check. */
  readonly secrets: string[] = []

  constructor(private readonly signUp: (index: number) => Promise<Credentials>) {}

  async credentials(): Promise<Credentials> {
    if (!this.current) {
      this.current = await this.signUp(this.users++)
      this.secrets.push(...this.current.secrets)
    }
    return this.current
  }

  /** Forget the user after an answer that may have ended its session. */
  afterAnswer(request: { method: string; url: string }, usedSelf: boolean, usedToken: boolean, status: number): void {
    const endedItself = usedSelf && status < 300 && (request.method === 'DELETE' || request.method === 'PATCH')
    // Logout and refresh revoke the token they were sent with; a 401 means it is gone already.
    const revoked = status === 401 || (request.method === 'POST' && status < 300 && request.url.includes('/auth/'))
    const logoutLike = usedToken && revoked
    if (endedItself || logoutLike) this.current = undefined
  }
}
