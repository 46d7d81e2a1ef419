/**
 * /group: the team — its name and collaborator count, members with department and roles,
 * invitations (link/code and pre-registration by phone), managers, removal, roles with their users
 * and modules, switching maps and leaving a shared one. An invite link (/group?code=) asks to join.
 */
import { ActionSheet, Avatar, Button, Dialog, Input, Popup, Tabs, Tag } from '@nutui/nutui-react-taro'
import { Image, Text, View } from '@tarojs/components'
import { useRouter } from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import { useEffect, useState } from 'react'
import type { Member, Role } from '../../../types/teams'
import { DepartmentPicker } from '../../components/DepartmentPicker'
import { PageShell } from '../../components/PageShell'
import { TreeSelect } from '../../components/TreeSelect'
import { INVITE_MSG } from '../../domain/consentMessages'
import { PATHS } from '../../domain/guard'
import { qrDataUrl } from '../../domain/qr'
import { TEAM_UI_MSG } from '../../domain/messages'
import { inviteCodeFrom, memberActions, ROLE_NAME_MAX, type MemberAction } from '../../domain/teamRules'
import { maskPhone } from '../../domain/validate'
import { useStores } from '../../stores/context'
import './index.scss'
import { teamStores } from '../../stores/teamStores'
import { DeleteConfirm } from '../../components/DeleteConfirm'

const MEMBER_ACTION_NAMES: Record<MemberAction, string> = { department: '设置部门', manager: '设为管理者', unmanager: '取消管理者', remove: '移出团队' }

function MemberRow({ m, onTap }: { m: Member; onTap?: () => void }) {
  const { departments, roles } = useStores(teamStores)
  const dept = m.department_id ? departments.pathLabel(m.department_id) : ''
  const roleNames = roles.rolesOf(m.user.id).map((r) => r.name)
  return (
    <View className='member' onClick={onTap}>
      <Avatar size='normal' src={m.user.avatar || ''}>
        {(m.user.nickname || '成').slice(0, 1)}
      </Avatar>
      <View className='member__text'>
        <View className='member__title'>
          <Text className='member__name'>{m.user.nickname || '未命名'}</Text>
          {m.is_admin ? (
            <Tag type='primary' className='member__tag'>
              管理员
            </Tag>
          ) : m.is_manager ? (
            <Tag type='success' className='member__tag'>
              管理者
            </Tag>
          ) : null}
          {m.managed_department_ids.length ? (
            <Tag type='warning' className='member__tag'>
              部门负责人
            </Tag>
          ) : null}
        </View>
        <Text className='member__meta muted'>
          {maskPhone(m.user.phone)}
          {dept ? ` · ${dept}` : ''}
          {roleNames.length ? ` · ${roleNames.join('、')}` : ''}
        </Text>
      </View>
      {onTap ? <Text className='member__more'>管理</Text> : null}
    </View>
  )
}

/** Who the phone typed into the add form belongs to, so the manager sees whom they are adding. */
const PhoneOwnerLine = observer(function PhoneOwnerLine() {
  const { team, notes } = useStores(teamStores)
  const owner = team.phoneOwner
  if (!owner) return null
  if (!owner.person) return <Text className='add-form__owner add-form__owner--none muted'>{owner.message}</Text>
  const p = owner.person
  return (
    <View className='add-form__owner'>
      <Avatar size='small' src={p.avatar ? notes.photoUrl(p.avatar) : ''}>
        {(p.nickname || '用').slice(0, 1)}
      </Avatar>
      <Text className='add-form__owner-name'>{p.nickname || '未命名'}</Text>
      <Text className='muted'>{p.phone}</Text>
      {p.is_member ? (
        <Tag type='warning' className='member__tag'>
          已是团队成员
        </Tag>
      ) : null}
    </View>
  )
})

const Members = observer(function Members() {
  const { team, departments, session } = useStores(teamStores)
  const [acting, setActing] = useState<Member | null>(null)
  const [picking, setPicking] = useState<Member | null>(null)
  const [removing, setRemoving] = useState<Member | null>(null)
  const [adding, setAdding] = useState(false)
  const [form, setForm] = useState({ nickname: '', phone: '', department_id: 0 })
  const [formDept, setFormDept] = useState(false)

  const actionsOf = (m: Member) => memberActions({ userId: session.user?.id ?? 0, isAdmin: team.isAdmin }, m)

  const submitAdd = async () => {
    if (await team.preRegister(form)) {
      setAdding(false)
      setForm({ nickname: '', phone: '', department_id: 0 })
    }
  }

  return (
    <View className='members'>
      {team.canManage ? (
        <View className='invite'>
          <Text className='invite__title'>邀请成员</Text>
          <Text className='invite__sub muted'>把链接或邀请码发给同事，对方登录后即可加入；也可以直接用手机号添加。</Text>
          {team.inviteCode ? (
            <View className='invite__code'>
              <Text className='invite__code-label muted'>邀请码</Text>
              <Text className='invite__code-value'>{team.inviteCode}</Text>
            </View>
          ) : null}
          {team.inviteLink ? (
            <View className='invite__qr'>
              <Image className='invite__qr-image' src={qrDataUrl(team.inviteLink)} showMenuByLongpress />
              <Text className='invite__qr-text muted'>用微信或手机相机扫码加入</Text>
            </View>
          ) : null}
          <View className='invite__buttons'>
            <Button size='small' type='primary' className='invite__copy' disabled={team.full} onClick={() => void team.copyInvite()}>
              复制邀请链接
            </Button>
            <Button size='small' fill='outline' type='primary' className='invite__phone' disabled={team.full} onClick={() => setAdding(true)}>
              手机号添加
            </Button>
            {team.inviteCode ? (
              <Button size='small' fill='outline' className='invite__reset' onClick={() => void team.loadInviteCode(true)}>
                重置邀请码
              </Button>
            ) : null}
          </View>
          {team.full ? <Text className='invite__full'>协作成员已达上限，升级会员可邀请更多成员</Text> : null}
        </View>
      ) : null}

      <View className='section-head'>
        <Text>成员</Text>
        <Text className='muted'>{team.countLabel ? `协作成员 ${team.countLabel}` : ''}</Text>
      </View>
      {team.members.map((m) => (
        <MemberRow key={m.join_id} m={m} onTap={team.canManage && actionsOf(m).length ? () => setActing(m) : undefined} />
      ))}

      {team.pending.length ? (
        <>
          <View className='section-head'>
            <Text>待加入</Text>
            <Text className='muted'>{INVITE_MSG.pendingHint}</Text>
          </View>
          {team.pending.map((p) => (
            <View key={p.id} className='member member--pending'>
              <Avatar size='normal'>{p.nickname.slice(0, 1)}</Avatar>
              <View className='member__text'>
                <Text className='member__name'>{p.nickname}</Text>
                <Text className='member__meta muted'>
                  {maskPhone(p.phone)}
                  {p.department_id ? ` · ${departments.pathLabel(p.department_id)}` : ''}
                </Text>
              </View>
              {team.canManage ? (
                <Text className='member__more' onClick={() => void team.withdrawPending(p.id)}>
                  撤回
                </Text>
              ) : null}
            </View>
          ))}
        </>
      ) : null}

      <ActionSheet
        visible={!!acting}
        title={acting?.user.nickname}
        options={acting ? actionsOf(acting).map((a) => ({ name: MEMBER_ACTION_NAMES[a], action: a, danger: a === 'remove' })) : []}
        cancelText='取消'
        onCancel={() => setActing(null)}
        onSelect={(item) => {
          const m = acting
          setActing(null)
          if (!m) return
          const action = (item as { action: MemberAction }).action
          if (action === 'department') setPicking(m)
          else if (action === 'manager') void team.setManager(m, true)
          else if (action === 'unmanager') void team.setManager(m, false)
          else setRemoving(m)
        }}
      />
      <DepartmentPicker
        visible={!!picking}
        title='设置部门'
        value={picking?.department_id ?? 0}
        noneLabel='不属于任何部门'
        onClose={() => setPicking(null)}
        onPick={(id) => {
          const m = picking
          setPicking(null)
          if (m) void team.setDepartment(m, id)
        }}
      />
      <Dialog
        className='dialog--destructive'
        title='移出团队'
        visible={!!removing}
        content={removing ? TEAM_UI_MSG.removeConfirm(removing.user.nickname) : ''}
        confirmText='移出'
        cancelText='取消'
        onConfirm={() => {
          const m = removing
          setRemoving(null)
          if (m) void team.remove(m)
        }}
        onCancel={() => setRemoving(null)}
      />
      <Popup
        visible={adding}
        position='bottom'
        round
        closeable
        title='手机号添加成员'
        onClose={() => {
          setAdding(false)
          team.clearPhoneOwner()
        }}
      >
        <View className='add-form'>
          <Text className='add-form__label'>姓名</Text>
          <Input className='add-form__input' name='nickname' placeholder='请输入成员姓名' value={form.nickname} onChange={(v) => setForm({ ...form, nickname: v })} />
          <Text className='add-form__label'>手机号</Text>
          <Input
            className='add-form__input'
            name='phone'
            type='tel'
            placeholder='请输入手机号'
            maxLength={11}
            value={form.phone}
            onChange={(v) => {
              setForm({ ...form, phone: v })
              void team.lookUpPhone(v)
            }}
          />
          <PhoneOwnerLine />
          <Text className='add-form__label'>部门</Text>
          <View className='add-form__picker' onClick={() => setFormDept(true)}>
            <Text>{form.department_id ? departments.pathLabel(form.department_id) : '不属于任何部门'}</Text>
          </View>
          <Button block type='primary' className='add-form__submit' onClick={() => void submitAdd()}>
            添加
          </Button>
        </View>
      </Popup>
      <DepartmentPicker
        visible={formDept}
        title='选择部门'
        value={form.department_id}
        noneLabel='不属于任何部门'
        onClose={() => setFormDept(false)}
        onPick={(id) => {
          setFormDept(false)
          setForm({ ...form, department_id: id })
        }}
      />
    </View>
  )
})

const Roles = observer(function Roles() {
  const { roles, team } = useStores(teamStores)
  const [naming, setNaming] = useState<{ id?: number; name: string } | null>(null)
  const [usersOf, setUsersOf] = useState<Role | null>(null)
  const [modulesOf, setModulesOf] = useState<Role | null>(null)
  const [deleting, setDeleting] = useState<Role | null>(null)
  const memberNodes = team.members.map((m) => ({ id: m.user.id, name: m.user.nickname || maskPhone(m.user.phone) }))

  const saveName = async () => {
    if (!naming) return
    if (await roles.save(naming)) setNaming(null)
  }

  return (
    <View className='roles'>
      <Text className='roles__hint muted'>角色决定成员可以使用哪些功能模块。管理员和管理者拥有全部模块。</Text>
      {roles.list.length === 0 ? <Text className='roles__empty muted'>还没有角色</Text> : null}
      {roles.list.map((r) => (
        <View key={r.id} className='role'>
          <View className='role__head'>
            <Text className='role__name'>{r.name}</Text>
            <Text className='role__link' onClick={() => setNaming({ id: r.id, name: r.name })}>
              重命名
            </Text>
            <Text className='role__link role__link--danger' onClick={() => setDeleting(r)}>
              删除
            </Text>
          </View>
          <View className='role__line' onClick={() => setUsersOf(r)}>
            <Text className='role__label'>成员</Text>
            <Text className='role__value'>{r.user_ids.length ? r.user_ids.map((id) => team.memberName(id)).join('、') : '未分配'}</Text>
            <Text className='role__edit'>设置</Text>
          </View>
          <View className='role__line' onClick={() => setModulesOf(r)}>
            <Text className='role__label'>模块</Text>
            <Text className='role__value'>{r.module_ids.map((id) => roles.moduleName(id)).join('、') || '无'}</Text>
            <Text className='role__edit'>设置</Text>
          </View>
        </View>
      ))}
      {roles.lockedModules.length ? <Text className='roles__locked muted'>开通会员后可授权：{roles.lockedModules.map((m) => m.name).join('、')}</Text> : null}
      <View className='page-pad'>
        <Button block type='primary' className='roles__add' onClick={() => setNaming({ name: '' })}>
          新建角色
        </Button>
      </View>

      <Popup visible={!!naming} position='bottom' round closeable title={naming?.id ? '重命名角色' : '新建角色'} onClose={() => setNaming(null)}>
        {naming ? (
          <View className='add-form role-form'>
            <Text className='add-form__label'>角色名称</Text>
            <Input className='add-form__input' name='role-name' placeholder='如：外勤人员' maxLength={ROLE_NAME_MAX} value={naming.name} onChange={(v) => setNaming({ ...naming, name: v })} />
            <Button block type='primary' className='add-form__submit' onClick={() => void saveName()}>
              保存
            </Button>
          </View>
        ) : null}
      </Popup>
      <TreeSelect
        visible={!!usersOf}
        title='选择角色成员'
        nodes={memberNodes}
        value={usersOf?.user_ids ?? []}
        onCancel={() => setUsersOf(null)}
        onConfirm={(ids) => {
          const r = usersOf
          setUsersOf(null)
          if (r) void roles.saveUsers(r.id, ids.map(Number))
        }}
      />
      <TreeSelect
        visible={!!modulesOf}
        title='选择授权模块'
        nodes={roles.moduleNodes}
        value={modulesOf?.module_ids ?? []}
        onCancel={() => setModulesOf(null)}
        onConfirm={(ids) => {
          const r = modulesOf
          setModulesOf(null)
          if (r) void roles.saveModules(r.id, ids)
        }}
      />
      <DeleteConfirm title='删除角色' subject={deleting} message={(r) => TEAM_UI_MSG.deleteRoleConfirm(r.name)} onDelete={(r) => void roles.remove(r.id)} onClose={() => setDeleting(null)} />
    </View>
  )
})

/** Switching maps and leaving a shared one. */
const MapsFooter = observer(function MapsFooter() {
  const { team, session, navigate } = useStores(teamStores)
  const [switching, setSwitching] = useState(false)
  const [quitting, setQuitting] = useState(false)
  const others = team.groups.filter((g) => !g.selected)

  return (
    <View className='page-pad group-footer'>
      {others.length ? (
        <Button block fill='outline' type='primary' className='group-switch' onClick={() => setSwitching(true)}>
          切换地图
        </Button>
      ) : null}
      {!session.is_admin ? (
        <Button block fill='outline' type='danger' className='group-quit' onClick={() => setQuitting(true)}>
          退出团队
        </Button>
      ) : null}
      <ActionSheet
        visible={switching}
        title='切换到'
        options={others.map((g) => ({ name: `${g.name}${g.is_admin ? '（我的）' : ''}`, id: String(g.id) }))}
        cancelText='取消'
        onCancel={() => setSwitching(false)}
        onSelect={async (item) => {
          setSwitching(false)
          if (await session.switchGroup(Number(item.id))) navigate(PATHS.map, 'relaunch')
        }}
      />
      <Dialog
        className='dialog--destructive'
        title='退出团队'
        visible={quitting}
        content={TEAM_UI_MSG.quitConfirm(session.user?.select_groupname ?? '')}
        confirmText='退出'
        cancelText='取消'
        onConfirm={async () => {
          setQuitting(false)
          if (await session.quitGroup()) navigate(PATHS.map, 'relaunch')
        }}
        onCancel={() => setQuitting(false)}
      />
    </View>
  )
})

/** The join question an invite link asks. */
const InviteJoin = observer(function InviteJoin({ code }: { code: string }) {
  const { api, session, navigate } = useStores()
  const [info, setInfo] = useState<{ group_name: string; owner_nickname: string; group_id: number } | null>(null)
  const [closed, setClosed] = useState(false)

  useEffect(() => {
    void api.post('/api/group/invite/info', { code }).then((res) => res && setInfo(res))
  }, [code, api])

  if (!info || closed || info.group_id === session.user?.select_groupid) return null
  return (
    <Dialog
      title='加入团队'
      visible
      content={`${info.owner_nickname || '管理员'}邀请您加入「${info.group_name}」`}
      confirmText='加入'
      cancelText='暂不'
      onConfirm={async () => {
        setClosed(true)
        if (await session.joinTeam(code)) navigate(PATHS.map, 'relaunch')
      }}
      onCancel={() => setClosed(true)}
    />
  )
})

const Team = observer(function Team() {
  const { team, departments, roles, session } = useStores(teamStores)
  const router = useRouter()
  const code = inviteCodeFrom(router.params.code ? decodeURIComponent(router.params.code) : '')
  const [tab, setTab] = useState<string | number>('members')
  const [renaming, setRenaming] = useState<string | null>(null)

  useEffect(() => {
    void team.load()
    void team.loadGroups()
    void departments.load()
    void roles.load()
    if (team.canManage) void team.loadInviteCode()
  }, [session.user?.select_groupid, departments, roles, team])

  const saveName = async () => {
    if (renaming !== null && (await session.saveGroupName(renaming))) setRenaming(null)
  }

  return (
    <View className='team'>
      <View className='team-head'>
        <View className='team-head__row'>
          <Text className='team-head__name'>{session.user?.select_groupname}</Text>
          {session.is_admin ? (
            <Text className='team-head__rename' onClick={() => setRenaming(session.user?.select_groupname ?? '')}>
              改名
            </Text>
          ) : null}
        </View>
        <Text className='team-head__count muted'>协作成员 {team.countLabel}</Text>
      </View>
      {/* Tabs only as the title bar: its panes are transformed, which would misplace the popups inside them. */}
      {team.canManage ? (
        <Tabs value={tab} onChange={(v) => setTab(v)} className='team-tabs'>
          <Tabs.TabPane title='成员' value='members' />
          <Tabs.TabPane title='角色' value='roles' />
        </Tabs>
      ) : null}
      {team.canManage && tab === 'roles' ? <Roles /> : <Members />}
      <MapsFooter />
      {code ? <InviteJoin code={code} /> : null}
      <Popup visible={renaming !== null} position='bottom' round closeable title='团队名称' onClose={() => setRenaming(null)}>
        <View className='add-form group-name-form'>
          <Input className='add-form__input' name='group-name' value={renaming ?? ''} onChange={(v) => setRenaming(v)} />
          <Button block type='primary' className='add-form__submit' onClick={() => void saveName()}>
            保存
          </Button>
        </View>
      </Popup>
    </View>
  )
})

function GroupPage() {
  return (
    <PageShell className='group-page'>
      <Team />
    </PageShell>
  )
}

export default observer(GroupPage)
