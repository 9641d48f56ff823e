-- The fleet's secret check (one row): the HMAC-SHA256, by the fleet's secret (refstore.fleet.secret), of a fixed
-- text and this salt. A node that makes the same value has the same secret, and the value shows nothing of it. A
-- node whose value differs does not start while another node is up; with none up, it sets the check anew (so a
-- fleet whose first node had a wrong secret is not stuck with it once that node is stopped).
CREATE TABLE refstore_fleet_trust (
	id INT NOT NULL PRIMARY KEY,
	salt VARCHAR(64) NOT NULL,
	secret_check VARCHAR(64) NOT NULL,
	node VARCHAR(200) NOT NULL,
	set_at TIMESTAMP WITH TIME ZONE NOT NULL
);

-- each node's value at its last start (null without a secret), and its previous secret's during a rotation, so that
-- a node's health says which peers accept its credentials
ALTER TABLE refstore_node ADD COLUMN secret_check VARCHAR(64);
ALTER TABLE refstore_node ADD COLUMN previous_check VARCHAR(64);
