// The account's API tokens: what each reaches, its access, until when, and when and from where it
// was last used. A token is shown once, when made (token.create); the row menu revokes one.

import { type ApiToken, TOKEN_ACCESS, tokenReach } from '../../../domain/access.ts';
import { formatTime } from '../../../domain/format.ts';
import { MENUS } from '../../app/menus.ts';
import { usePagedList } from '../../store/pagedList.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';
import { useSecurityUpdates } from './security.ts';

const columns: Column<ApiToken>[] = [
  { id: 'name', title: 'Name', value: (t) => t.name },
  { id: 'access', title: 'Access', value: (t) => TOKEN_ACCESS[t.access].label },
  { id: 'reach', title: 'Reaches', value: tokenReach, width: '2fr' },
  { id: 'expires', title: 'Expires', value: (t) => t.expires, render: (t) => formatTime(t.expires) },
  {
    id: 'lastUsed',
    title: 'Last used',
    value: (t) => t.lastUsed ?? 0,
    render: (t) => (t.lastUsed ? `${formatTime(t.lastUsed)} from ${t.lastAddress}` : 'Never'),
    width: '2fr',
  },
];

export function TokenList() {
  const list = usePagedList({ of: 'apiTokens', params: {} });
  useSecurityUpdates(list.refetch);
  return (
    <div className="page page-list">
      <h1 className="page-title">API tokens</h1>
      <VirtualList<ApiToken>
        {...list.view}
        name="api-tokens"
        label="API tokens"
        rowKey={(t) => t.tokenId}
        columns={columns}
        defaultSort={{ column: 'name', direction: 'asc' }}
        emptyText="No API tokens. Make one for a tool or bot of yours: it reaches no more than you do."
        menu={() => MENUS.tokenRow}
        menuValues={(rows) => ({ token: rows[0]?.name })}
        toolbar={<Toolbar commandIds={MENUS.tokenListToolbar} label="API tokens" />}
      />
    </div>
  );
}
