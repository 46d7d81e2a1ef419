/** Distribution rules (types/distribution.ts): code form, invitation channel and paths, /reg input. */
import {
  DISTRIBUTION_CODE_LENGTH,
  DISTRIBUTOR_COMPANY_MAX,
  DISTRIBUTOR_NAME_MAX,
  checkDistributorCompany,
  checkDistributorName,
  checkRegistration,
  codeOfChannel,
  distributionChannel,
  distributionViewPath,
  inviteLinkParts,
  invitePath,
  inviteUrl,
  isDistributionCode,
  normalizeDistributionCode,
  randomDistributionCode,
} from '../../src/domain/distribution'
import { DIST_MSG } from '../../src/domain/distributionMessages'
import { MSG } from '../../src/domain/messages'
import { INVITE_CODE_ALPHABET } from '../../src/domain/teams'

describe('promotion codes', () => {
  it('are DISTRIBUTION_CODE_LENGTH characters of the invite alphabet, picked by the given random source', () => {
    let i = 0
    const code = randomDistributionCode((n) => i++ % n)
    expect(code).toHaveLength(DISTRIBUTION_CODE_LENGTH)
    expect(code).toBe(INVITE_CODE_ALPHABET.slice(0, DISTRIBUTION_CODE_LENGTH))
    expect(isDistributionCode(code)).toBe(true)
    expect(randomDistributionCode((n) => n - 1)).toBe(INVITE_CODE_ALPHABET.at(-1)!.repeat(DISTRIBUTION_CODE_LENGTH))
  })

  it('refuse look-alikes, other lengths and lower case until normalised', () => {
    expect(isDistributionCode('ABCDEFG0')).toBe(false) // 0 is not in the alphabet
    expect(isDistributionCode('ABCDEFGI')).toBe(false) // nor I
    expect(isDistributionCode('ABCDEFG')).toBe(false)
    expect(isDistributionCode('ABCDEFGHJ')).toBe(false)
    expect(isDistributionCode('abcdefgh')).toBe(false)
    expect(normalizeDistributionCode('  abcdefgh ')).toBe('ABCDEFGH')
    expect(isDistributionCode(normalizeDistributionCode(' abcdefgh'))).toBe(true)
    expect(normalizeDistributionCode(undefined)).toBe('')
  })
})

describe('the invitation', () => {
  it("signs in through /login with the channel 'dist_<code>' that the counts read", () => {
    expect(distributionChannel('ABCD2345')).toBe('dist_ABCD2345')
    expect(invitePath('ABCD2345')).toBe('/login?channel=dist_ABCD2345')
    expect(inviteUrl('https://map.example.com/', invitePath('ABCD2345'))).toBe('https://map.example.com/login?channel=dist_ABCD2345')
    expect(distributionViewPath('ABCD2345')).toBe('/distribution/view?code=ABCD2345')
  })

  it('reads the code back from a channel, and nothing from other channels', () => {
    expect(codeOfChannel('dist_ABCD2345')).toBe('ABCD2345')
    expect(codeOfChannel('app_h5')).toBeNull()
    expect(codeOfChannel('dist_')).toBeNull()
    expect(codeOfChannel('dist_abcd2345')).toBeNull()
    expect(codeOfChannel(undefined)).toBeNull()
  })
})

describe('/reg input', () => {
  it('needs a name of 1 to 20 characters (emoji count once)', () => {
    expect(checkDistributorName('')).toBe(DIST_MSG.nameRequired)
    expect(checkDistributorName('  ')).toBe(DIST_MSG.nameRequired)
    expect(checkDistributorName('王')).toBeNull()
    expect(checkDistributorName('名'.repeat(DISTRIBUTOR_NAME_MAX))).toBeNull()
    expect(checkDistributorName('😀'.repeat(DISTRIBUTOR_NAME_MAX))).toBeNull()
    expect(checkDistributorName('名'.repeat(DISTRIBUTOR_NAME_MAX + 1))).toBe(DIST_MSG.nameTooLong(20))
  })

  it('takes an optional company of at most 40 characters', () => {
    expect(checkDistributorCompany(undefined)).toBeNull()
    expect(checkDistributorCompany('')).toBeNull()
    expect(checkDistributorCompany('司'.repeat(DISTRIBUTOR_COMPANY_MAX))).toBeNull()
    expect(checkDistributorCompany('司'.repeat(DISTRIBUTOR_COMPANY_MAX + 1))).toBe(DIST_MSG.companyTooLong(40))
  })

  it('reports the first problem in the order of the form: name, phone, code, company', () => {
    const good = { name: '王推广', phone: '13912340000', code: '123456', company: '' }
    expect(checkRegistration(good)).toBeNull()
    expect(checkRegistration({ ...good, name: '', phone: '1' })).toBe(DIST_MSG.nameRequired)
    expect(checkRegistration({ ...good, phone: '1', code: '' })).toBe(MSG.phoneInvalid)
    expect(checkRegistration({ ...good, code: '' })).toBe(MSG.codeRequired)
    expect(checkRegistration({ ...good, code: '12' })).toBe(MSG.codeInvalidFormat)
    expect(checkRegistration({ ...good, company: '司'.repeat(41) })).toBe(DIST_MSG.companyTooLong(40))
  })
})

describe('the invitation link on screen', () => {
  it('splits off the channel with the code after the last =, so that the code is kept whole', () => {
    expect(inviteLinkParts('https://map.test/login?channel=dist_ABCD2345')).toEqual(['https://map.test/login?channel=', 'dist_ABCD2345'])
    expect(inviteLinkParts('https://map.test/download')).toEqual(['https://map.test/download', ''])
  })
})
