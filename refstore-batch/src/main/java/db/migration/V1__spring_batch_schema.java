package db.migration;

import java.sql.Connection;
import java.util.Locale;

import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * Creates Spring Batch's job repository tables with the schema script Spring Batch ships for the database in
 * use ({@code org/springframework/batch/core/schema-<platform>.sql}), once, under Flyway's version history, so a
 * second start on the same database finds them and keeps the history.
 */
public class V1__spring_batch_schema extends BaseJavaMigration {

	@Override
	public void migrate(Context context) throws Exception {
		Connection connection = context.getConnection();
		String product = connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
		String platform = product.contains("postgres") ? "postgresql" : product.contains("h2") ? "h2" : product;
		ResourceDatabasePopulator populator = new ResourceDatabasePopulator(
				new ClassPathResource("org/springframework/batch/core/schema-" + platform + ".sql"));
		populator.populate(new SingleConnectionDataSource(connection, true).getConnection());
	}

}
