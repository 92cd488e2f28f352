module hooks

go 1.22
