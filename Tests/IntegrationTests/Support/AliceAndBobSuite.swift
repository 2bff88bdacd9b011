/// A suite that starts each test from `AliceAndBob`: Bob watches over Alice, who has two devices.
protocol AliceAndBobSuite {
    var cast: AliceAndBob { get }
}

extension AliceAndBobSuite {
    var broker: BrokerProcess { cast.broker }
    var alice: Person { cast.alice }
    var bob: Person { cast.bob }
}
