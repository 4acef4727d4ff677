// The public site's links that lead off the site (SPEC §1, §2 landing page): each one set in the
// server's configuration, served to the console in /config.json, with the provider's own pages
// when nothing is set.

export interface SiteLinks {
  devBlogUrl: string;
  supportUrl: string;
  communityChatUrl: string;
  /** The provider's config-planning tool (SPEC §1), linked from the family section and the dino list. */
  plannerUrl: string;
}

export type SiteLink = keyof SiteLinks;

export const SITE_LINK_DEFAULTS: SiteLinks = {
  devBlogUrl: 'https://usebeacon.app/blog',
  supportUrl: 'https://usebeacon.app/help/contact',
  communityChatUrl: 'https://usebeacon.app/discord',
  plannerUrl: 'https://usebeacon.app/',
};

/** The variable each link is configured by, on the server and when building the console. */
export const SITE_LINK_ENV: Record<SiteLink, string> = {
  devBlogUrl: 'PALISADE_DEV_BLOG_URL',
  supportUrl: 'PALISADE_SUPPORT_URL',
  communityChatUrl: 'PALISADE_COMMUNITY_CHAT_URL',
  plannerUrl: 'PALISADE_PLANNER_URL',
};

export const SITE_LINKS = Object.keys(SITE_LINK_DEFAULTS) as SiteLink[];

/** Why a configured link cannot be used, or null. A link is shown to every visitor: web or mail only. */
export function siteLinkProblem(link: SiteLink, value: string): string | null {
  const name = `${link} (${SITE_LINK_ENV[link]})`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${name} "${value}" is not a URL.`;
  }
  return ['https:', 'http:', 'mailto:'].includes(url.protocol)
    ? null
    : `${name} "${value}" must be an https, http or mailto address.`;
}
