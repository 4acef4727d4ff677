// The user menu of SPEC §2: each item is a registered command, nothing more.

import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import type { User } from '../../domain/api.ts';
import { useCommandRuntime } from './runtime.ts';

const ITEMS = [
  'account.controlPanel',
  'account.info',
  'account.copyUsername',
  'session.signOut',
  'account.managePlan',
];

export function UserMenu({ user }: { user: User }) {
  const rt = useCommandRuntime();
  return (
    <Menu>
      <MenuButton className="user-button" aria-label={`User menu for ${user.usernameFull}`}>
        {user.username}
      </MenuButton>
      <MenuItems anchor="bottom end" className="menu">
        {ITEMS.map((id) => {
          const cmd = rt.registry.get(id);
          if (!cmd) return null;
          return (
            <MenuItem key={id}>
              <button
                type="button"
                className="menu-item"
                onClick={() => void rt.run(cmd, {}, 'menu').catch(() => {})}
              >
                {cmd.title}
              </button>
            </MenuItem>
          );
        })}
      </MenuItems>
    </Menu>
  );
}
