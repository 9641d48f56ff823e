package db.migration;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.util.Locale;

import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * Creates Quartz's JDBC job store tables ({@code QRTZ_*}) with the script Quartz ships for the database in use
 * ({@code org/quartz/impl/jdbcjobstore/tables_<platform>.sql}), under Flyway's history like the batch tables.
 * The scripts end with a {@code COMMIT}, which is dropped so that Flyway keeps the migration in one transaction.
 */
public class V40__quartz_schema extends BaseJavaMigration {

	@Override
	public void migrate(Context context) throws Exception {
		Connection connection = context.getConnection();
		String product = connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
		String platform = product.contains("postgres") ? "postgres" : product.contains("h2") ? "h2" : product;
		String script = new ClassPathResource("org/quartz/impl/jdbcjobstore/tables_" + platform + ".sql")
			.getContentAsString(StandardCharsets.UTF_8)
			.replaceAll("(?im)^\\s*COMMIT\\s*;\\s*$", "");
		ResourceDatabasePopulator populator = new ResourceDatabasePopulator(
				new ByteArrayResource(script.getBytes(StandardCharsets.UTF_8), "Quartz tables for " + platform));
		populator.setCommentPrefixes("--", "#");
		populator.populate(new SingleConnectionDataSource(connection, true).getConnection());
	}

}
