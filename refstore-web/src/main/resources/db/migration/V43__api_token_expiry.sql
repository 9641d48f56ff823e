-- API tokens may expire, and a token created with another token (its parent) is revoked with it.
ALTER TABLE refstore_api_token ADD COLUMN expires_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE refstore_api_token ADD COLUMN parent_id BIGINT;
CREATE INDEX refstore_api_token_parent ON refstore_api_token (parent_id);
