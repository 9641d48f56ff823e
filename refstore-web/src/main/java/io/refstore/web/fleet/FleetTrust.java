package io.refstore.web.fleet;

import java.security.SecureRandom;
import java.time.OffsetDateTime;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import io.refstore.batch.api.RefJobs;

/**
 * Proves at start that this node has the fleet's secret ({@code refstore.fleet.secret})
 * before it joins: the database holds the fleet's check, the HMAC of a fixed text and a
 * salt by the secret ({@link NodeSignature#secretCheck}), which shows nothing of the
 * secret; this node makes its own and compares. The first node sets the check. A node
 * whose check differs while another node is up fails to start, naming the setting, so it
 * never registers, never shows as up and never takes a handed-off job. With no other node
 * up it sets the check anew and says so in its log: a fleet whose first node started with
 * a wrong secret is not stuck with it, and whichever secret the first node back has
 * becomes the one the others must prove. During a rotation a node proves it with
 * {@code refstore.fleet.previous-secret} too, and makes its own secret the one to prove.
 * A node without a secret joins without forwarding (as documented), and proves nothing.
 * Runs while the application starts, before the web server listens. Thread-safe once
 * constructed.
 */
@Component
class FleetTrust implements InitializingBean {

	private static final Logger logger = LoggerFactory.getLogger(FleetTrust.class);

	private final NodeSignature signature;

	private final JdbcTemplate jdbc;

	private final TransactionTemplate transactions;

	private final FleetProperties properties;

	private final String node;

	private volatile String check;

	private volatile String previousCheck;

	FleetTrust(ObjectProvider<NodeSignature> signature, JdbcTemplate jdbc, TransactionTemplate transactions,
			FleetProperties properties, RefJobs jobs) {
		this.signature = signature.getIfAvailable();
		this.jdbc = jdbc;
		this.transactions = transactions;
		this.properties = properties;
		this.node = jobs.instanceId();
	}

	/**
	 * This node's check value, equal to every node's that has the same secret;
	 * {@code null} without a secret.
	 */
	String check() {
		return this.check;
	}

	/**
	 * What this node's {@code refstore.fleet.previous-secret} makes of the check, or
	 * {@code null} without one: a node signing with that secret is accepted here too.
	 */
	String previousCheck() {
		return this.previousCheck;
	}

	@Override
	public void afterPropertiesSet() {
		if (this.signature == null) {
			logger.info("Fleet node '{}' has no refstore.fleet.secret: it neither forwards nor accepts forwarded"
					+ " requests", this.node);
			return;
		}
		Integer rows = this.jdbc.queryForObject("SELECT COUNT(*) FROM refstore_fleet_trust", Integer.class);
		if (rows == null || rows == 0) {
			byte[] salt = new byte[16];
			new SecureRandom().nextBytes(salt);
			String hex = HexFormat.of().formatHex(salt);
			try {
				this.transactions.executeWithoutResult((status) -> this.jdbc.update(
						"INSERT INTO refstore_fleet_trust (id, salt, secret_check, node, set_at)"
								+ " VALUES (1, ?, ?, ?, CURRENT_TIMESTAMP)",
						hex, this.signature.secretCheck(hex), this.node));
			}
			catch (DuplicateKeyException ex) {
				// another node set it at the same moment: compared below
			}
		}
		this.check = this.transactions.execute((status) -> prove());
	}

	private String prove() {
		Map<String, Object> row = this.jdbc
			.queryForMap("SELECT salt, secret_check, node FROM refstore_fleet_trust WHERE id = 1 FOR UPDATE");
		String salt = (String) row.get("salt");
		String mine = this.signature.secretCheck(salt);
		this.previousCheck = this.signature.previousSecretCheck(salt);
		if (mine.equals(row.get("secret_check"))) {
			return mine;
		}
		if (this.previousCheck != null && this.previousCheck.equals(row.get("secret_check"))) {
			// a rotation: the secret this node signs with becomes the one to prove
			this.jdbc.update("UPDATE refstore_fleet_trust SET secret_check = ?, node = ?, set_at = CURRENT_TIMESTAMP"
					+ " WHERE id = 1", mine, this.node);
			logger.info("Fleet node '{}' proved the fleet's check with refstore.fleet.previous-secret: the check is now"
					+ " its refstore.fleet.secret's", this.node);
			return mine;
		}
		OffsetDateTime upSince = this.jdbc.queryForObject("SELECT CURRENT_TIMESTAMP", OffsetDateTime.class)
			.minus(this.properties.downAfter());
		List<String> up = this.jdbc.queryForList(
				"SELECT name FROM refstore_node WHERE name <> ? AND heartbeat_at >= ? ORDER BY name", String.class,
				this.node, upSince);
		if (!up.isEmpty()) {
			throw new IllegalStateException("refstore.fleet.secret of node '" + this.node
					+ "' is not the fleet's: nodes " + up + " are up with another secret (the fleet's check was set"
					+ " by node '" + row.get("node") + "'); give this node the same refstore.fleet.secret as theirs");
		}
		logger.warn("Fleet node '{}' sets the fleet's secret check anew: its refstore.fleet.secret is not the one node"
				+ " '{}' set the check with, and no other node is up. Nodes with that other secret will not start"
				+ " until they are given this one", this.node, row.get("node"));
		this.jdbc.update("UPDATE refstore_fleet_trust SET secret_check = ?, node = ?, set_at = CURRENT_TIMESTAMP"
				+ " WHERE id = 1", mine, this.node);
		return mine;
	}

}
