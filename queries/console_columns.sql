-- The views (and tables) of a collection's connection and their columns, for the SQL console's
-- schema list. Params: none.
SELECT table_name AS view, column_name, data_type
FROM information_schema.columns
WHERE table_schema = 'main'
ORDER BY table_name, ordinal_position
