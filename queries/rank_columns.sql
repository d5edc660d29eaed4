-- Column names of the ranking view in order; decision columns ("<method>/<model>") are picked from them in Python. Params: none.
SELECT column_name
FROM information_schema.columns
WHERE table_name = 'ranking'
ORDER BY ordinal_position
