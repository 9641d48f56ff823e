package io.refstore.web;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * The refstore web console. Its packages below {@code io.refstore.web} are by feature; it
 * reaches refs only through the public APIs of refstore-batch and refstore-core
 * ({@code WebArchitectureTest} enforces that no class here uses core's storage
 * internals). Configured by {@code application.yml}.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
@EnableScheduling
public class RefstoreApplication {

	/**
	 * Starts the console; arguments are Spring Boot's ({@code --server.port=9090} and the
	 * like).
	 * @param args command-line arguments
	 */
	public static void main(String[] args) {
		SpringApplication.run(RefstoreApplication.class, args);
	}

}
