# refstore web application image: build with the Maven wrapper, run on a JRE.
#   docker build -t refstore .        (or: docker-compose up --build, see README)

FROM eclipse-temurin:17-jdk AS build
WORKDIR /src
# the wrapper and poms first, so that dependencies stay cached while only sources change
COPY .mvn/ .mvn/
COPY mvnw pom.xml ./
COPY refstore-core/pom.xml refstore-core/
COPY refstore-batch/pom.xml refstore-batch/
COPY refstore-web/pom.xml refstore-web/
COPY refstore-benchmark/pom.xml refstore-benchmark/
RUN ./mvnw -B -ntp -q -pl refstore-web -am dependency:go-offline
COPY . .
RUN ./mvnw -B -ntp -q -pl refstore-web -am -DskipTests package \
	&& cp refstore-web/target/refstore-web-*.jar /src/refstore-web.jar

FROM eclipse-temurin:17-jre
RUN useradd --system --uid 10001 --home-dir /var/lib/refstore refstore \
	&& mkdir -p /var/lib/refstore/repos /var/lib/refstore/data /opt/refstore \
	&& chown -R refstore /var/lib/refstore
COPY --from=build /src/refstore-web.jar /opt/refstore/refstore-web.jar
COPY docker/refstore-web /opt/refstore/refstore-web
USER refstore
ENV REFSTORE_HOME=/var/lib/refstore
VOLUME ["/var/lib/refstore/repos", "/var/lib/refstore/data"]
EXPOSE 8080
ENTRYPOINT ["/opt/refstore/refstore-web"]
