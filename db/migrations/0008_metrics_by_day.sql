-- Issue 12: the listing running totals a second time, day-major (src/store/schema.ts
-- metrics_day): a range's totals over many stores seek one day in each, and that day's
-- rows of every store share a few pages here. The expression is the day within the
-- key, as src/store/listingFigures.ts writes it (DAY_OF_KEY).
CREATE INDEX `metrics_day` ON `metrics` ((k % 8388608),`website_id`,`seq`,`cum_search`,`cum_website_clicks`,`cum_call_clicks`,`cum_direction_requests`,`cum_business_bookings`);