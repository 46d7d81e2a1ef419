/** The invite code in what a person pasted: the code itself or an invite link carrying ?code=... ; upper-cased. */
export function parseInviteCode(input: string): string {
  const text = input.trim()
  const fromLink = /[?&#]code=([A-Za-z0-9]+)/.exec(text)
  return (fromLink ? fromLink[1] : text).toUpperCase()
}
