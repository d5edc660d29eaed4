-- How many audit rows carry a judge explanation (not null, not blank): none means Themes has
-- nothing to read, which the page says instead of "no match".
SELECT count(*) FILTER (WHERE trim(coalesce(judge_explanation, '')) <> '') AS explained,
       count(*) AS rows
FROM audit
