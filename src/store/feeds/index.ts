// The feeds of each way the console runs: on an account, or on one public dashboard.
import type { Feed } from '../poller.js';
import { acknowledgeFeed, alertHistoryFeed, channelGroupingFeed, channelTestFeed } from './alerts-feed.js';
import { channelSecretFeed } from './channel-secret-feed.js';
import { auditFeed, checkActionFeed, checkRunsFeed, dailyHistoryFeed, meFeed } from './check-actions-feed.js';
import { channelsFeed, channelSubmitFeed } from './channels-feed.js';
import { dashboardChartsFeed, dashboardsFeed } from './dashboards-feed.js';
import { checkWindowFeed, silenceFeed, windowActionFeed, windowsFeed } from './maintenance-feed.js';
import { publicDashboardFeed } from './public-feed.js';
import { metricsFeed, resultsFeed } from './results-feed.js';
import { screenshotFeed } from './screenshot-feed.js';
import { statusesFeed } from './statuses-feed.js';

/** The feeds of a console on an account; `statuses` is the worker's (statusesFeedVia) when there is one. */
export function accountFeeds(statuses: Feed = statusesFeed): Feed[] {
  return ACCOUNT_FEEDS.map((feed) => (feed === statusesFeed ? statuses : feed));
}

export const ACCOUNT_FEEDS: readonly Feed[] = [
  statusesFeed,
  resultsFeed,
  metricsFeed,
  dashboardsFeed,
  dashboardChartsFeed,
  channelsFeed,
  channelSubmitFeed,
  channelSecretFeed,
  alertHistoryFeed,
  acknowledgeFeed,
  channelTestFeed,
  channelGroupingFeed,
  screenshotFeed,
  meFeed,
  checkActionFeed,
  checkRunsFeed,
  auditFeed,
  dailyHistoryFeed,
  silenceFeed,
  checkWindowFeed,
  windowsFeed,
  windowActionFeed,
];

/** Without credentials only the public read works: the other views say so instead of asking. */
export function publicFeeds(slug: string): Feed[] {
  return [publicDashboardFeed(slug)];
}
